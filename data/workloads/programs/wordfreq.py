# Python workload: tokenises a text, counts words and bigrams with dicts, builds a small
# Markov model, solves 8-queens recursively and formats the results as JSON.
# Usage: python3 wordfreq.py text.txt
import json
import re
import sys


def words_of(path):
    with open(path, encoding="ascii") as f:
        for line in f:
            for w in re.findall(r"[a-z]+", line.lower()):
                yield w


def queens(n, row=0, cols=0, d1=0, d2=0):
    if row == n:
        return 1
    count = 0
    for c in range(n):
        if not (cols >> c) & 1 and not (d1 >> (row + c)) & 1 and not (d2 >> (row - c + n)) & 1:
            count += queens(n, row + 1, cols | 1 << c, d1 | 1 << (row + c), d2 | 1 << (row - c + n))
    return count


class Model:
    def __init__(self):
        self.counts = {}
        self.bigrams = {}

    def feed(self, words):
        prev = None
        for w in words:
            self.counts[w] = self.counts.get(w, 0) + 1
            if prev is not None:
                nxt = self.bigrams.setdefault(prev, {})
                nxt[w] = nxt.get(w, 0) + 1
            prev = w

    def generate(self, start, n):
        out = [start]
        for _ in range(n):
            nxt = self.bigrams.get(out[-1])
            if not nxt:
                break
            out.append(max(nxt.items(), key=lambda kv: (kv[1], kv[0]))[0])
        return out


model = Model()
model.feed(words_of(sys.argv[1]))
top = sorted(model.counts.items(), key=lambda kv: (-kv[1], kv[0]))[:50]
lengths = {}
for w, c in model.counts.items():
    lengths[len(w)] = lengths.get(len(w), 0) + c
result = {
    "distinct": len(model.counts),
    "top": top,
    "lengths": sorted(lengths.items()),
    "chain": model.generate(top[5][0], 30),
    "queens8": queens(8),
}
print(json.dumps(result, indent=1)[:2000])
