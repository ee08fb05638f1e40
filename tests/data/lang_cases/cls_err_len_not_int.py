class Bag:
    def __init__(self, items):
        self.items = items

    def __len__(self):
        return str(len(self.items))


b = Bag([1, 2])
print("made", b.items)
len(b)
