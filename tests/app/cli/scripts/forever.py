# Never finishes: for --timeout.
while True:
    pass
