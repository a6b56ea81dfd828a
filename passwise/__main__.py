import sys

from passwise.cli import main

sys.exit(main())
