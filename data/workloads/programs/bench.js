// Node.js 18 (V8 JIT): objects and maps, typed arrays, string work, closures, sorting.
'use strict';
const fs = require('fs');
const text = fs.readFileSync(process.argv[2], 'latin1');
const freq = new Map();
for (const w of text.toLowerCase().match(/[a-z]+/g)) freq.set(w, (freq.get(w) || 0) + 1);
const top = [...freq].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10);
console.log(top.map(([w, n]) => `${w} ${n}`).join('\n'));
// FFT-free spectral norm on Float64Array
function A(i, j) { return 1 / ((i + j) * (i + j + 1) / 2 + i + 1); }
function mulAv(n, v, out) { for (let i = 0; i < n; i++) { let s = 0; for (let j = 0; j < n; j++) s += A(i, j) * v[j]; out[i] = s; } }
function mulAtv(n, v, out) { for (let i = 0; i < n; i++) { let s = 0; for (let j = 0; j < n; j++) s += A(j, i) * v[j]; out[i] = s; } }
const N = 300, u = new Float64Array(N).fill(1), v = new Float64Array(N), t = new Float64Array(N);
for (let k = 0; k < 10; k++) { mulAv(N, u, t); mulAtv(N, t, v); mulAv(N, v, t); mulAtv(N, t, u); }
let vBv = 0, vv = 0; for (let i = 0; i < N; i++) { vBv += u[i] * v[i]; vv += v[i] * v[i]; }
console.log(Math.sqrt(vBv / vv).toFixed(9));
// object churn: a priority queue of records
class Heap { constructor() { this.a = []; }
  push(x) { const a = this.a; a.push(x); let i = a.length - 1; while (i > 0) { const p = (i - 1) >> 1; if (a[p].k <= a[i].k) break; [a[p], a[i]] = [a[i], a[p]]; i = p; } }
  pop() { const a = this.a, top = a[0], last = a.pop(); if (a.length) { a[0] = last; let i = 0; for (;;) { let l = 2 * i + 1, r = l + 1, m = i;
    if (l < a.length && a[l].k < a[m].k) m = l; if (r < a.length && a[r].k < a[m].k) m = r; if (m === i) break; [a[m], a[i]] = [a[i], a[m]]; i = m; } } return top; } }
const h = new Heap(); let x = 7, sum = 0;
for (let i = 0; i < 200000; i++) { x = (x * 48271) % 2147483647; h.push({k: x, id: i, tag: 'r' + (x & 255)}); if (i % 3 === 2) sum += h.pop().k % 1000; }
console.log(sum, JSON.stringify([...freq.keys()].slice(0, 2000)).length);
