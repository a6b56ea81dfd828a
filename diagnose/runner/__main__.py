"""python -m diagnose.runner {verify,bench,profile,ceilings,suite}: JSON on stdout."""

from .cli import main

raise SystemExit(main())
