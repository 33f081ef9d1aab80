# Ruby 3.1: blocks and iterators, hashes, strings, objects, a small ray-sphere kernel.
text = File.read(ARGV[0])
words = text.downcase.scan(/[a-z]+/)
freq = Hash.new(0)
words.each { |w| freq[w] += 1 }
freq.sort_by { |w, n| [-n, w] }.first(10).each { |w, n| puts format('%-12s %d', w, n) }
pairs = words.each_cons(2).map { |a, b| "#{a} #{b}" }.tally
puts "distinct bigrams: #{pairs.size}"
Vec = Struct.new(:x, :y, :z) do
  def -(o) = Vec.new(x - o.x, y - o.y, z - o.z)
  def dot(o) = x * o.x + y * o.y + z * o.z
end
spheres = (0...30).map { |i| [Vec.new(Math.sin(i) * 5, Math.cos(i * 1.3) * 5, 10 + i % 7), 0.5 + (i % 4) * 0.3] }
hits = 0
(0...90).each do |py|
  (0...90).each do |px|
    d = Vec.new((px - 45) / 45.0, (py - 45) / 45.0, 1.0)
    dd = d.dot(d)
    spheres.each do |c, r|
      b = d.dot(c)
      disc = b * b - dd * (c.dot(c) - r * r)
      if disc >= 0 then hits += 1; break end
    end
  end
end
puts "hits: #{hits}"
memo = {}
fib = ->(n) { n < 2 ? n : (memo[n] ||= fib.(n - 1) + fib.(n - 2)) }
puts fib.(90)
lines = text.lines.map(&:chomp).reject(&:empty?)
puts lines.sort_by { |l| [l.size, l] }.first(3).inspect
puts lines.group_by { |l| l[0] }.map { |k, v| [k, v.size] }.sort.first(5).inspect
