print("no checks yet")
