import os
import sys

# The core tests share small fixture models; make them importable as a module.
sys.path.insert(0, os.path.dirname(__file__))
