r = math.sqrt(2.0)
f"{r:.3f}"
t = linspace(0, math.pi, 5)
t
s = sin(t)
print(s)
clamp(t, 0.5, 2.0)
s.sum().item() > 2
{"n": 3, "name": "sin"}
