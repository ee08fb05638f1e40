# Inside a class body a name it assigns is looked up in the class, then globals: not the
# enclosing function's local
def build():
    step = 3

    class Config:
        step = step + 1
    return Config


print("building")
build().step
