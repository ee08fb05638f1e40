try:
    import pandas as pd
except ImportError as e:
    print("no pandas:", e)
try:
    import tqdm
except ModuleNotFoundError as e:
    print(type(e), e)
print("done")
