float.fromhex('0x1p0')
float.fromhex('zz')
