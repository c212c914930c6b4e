"""What `pulumi up` runs: the program of program.py."""
from program import main

main()
