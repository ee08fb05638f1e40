s = slice(1, 2)
s.indices(3)
s.indices(-1)
