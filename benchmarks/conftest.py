import sys
from pathlib import Path

DATA = Path(__file__).parent / "data"
sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
