class Empty:
    pass
Empty(1)
