-- LuaJIT (trace compiler): numeric loops, tables, strings, closures; compiled to machine code.
local text = io.open(arg[1]):read('a')
local freq, n = {}, 0
for w in text:gmatch('%a+') do w = w:lower(); freq[w] = (freq[w] or 0) + 1; n = n + 1 end
local list = {}
for w, c in pairs(freq) do list[#list + 1] = {w, c} end
table.sort(list, function(a, b) return a[2] > b[2] or (a[2] == b[2] and a[1] < b[1]) end)
for i = 1, 10 do print(list[i][1], list[i][2]) end
-- Mandelbrot
local hits = 0
for py = 0, 399 do
  for px = 0, 399 do
    local cr, ci = px / 200 - 1.5, py / 200 - 1.0
    local zr, zi, k = 0.0, 0.0, 0
    while k < 200 and zr * zr + zi * zi < 4 do zr, zi = zr * zr - zi * zi + cr, 2 * zr * zi + ci; k = k + 1 end
    if k == 200 then hits = hits + 1 end
  end
end
print('inside', hits)
-- sieve and a hash-heavy collatz table
local sieve, primes = {}, 0
for i = 2, 3000000 do
  if not sieve[i] then primes = primes + 1; for j = i * i, 3000000, i do sieve[j] = true end end
end
print('primes', primes)
local cache, best, arg_best = {[1] = 1}, 0, 0
local function collatz(x)
  if cache[x] then return cache[x] end
  local r = 1 + collatz(x % 2 == 0 and x / 2 or 3 * x + 1)
  cache[x] = r
  return r
end
for i = 1, 300000 do local c = collatz(i); if c > best then best, arg_best = c, i end end
print('collatz', arg_best, best, n)
