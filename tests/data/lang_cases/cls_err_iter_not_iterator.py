class Bad:
    def __iter__(self):
        return 5


print("before")
for v in Bad():
    print(v)
