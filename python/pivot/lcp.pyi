from typing import Any

import numpy.typing as npt

def solve(M: npt.ArrayLike, q: npt.ArrayLike, max_pivots: int = 0) -> dict[str, Any]: ...
