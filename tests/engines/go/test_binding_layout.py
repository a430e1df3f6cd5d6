"""The go core's constants and struct layouts as the binding sees them come from its header
(the checks every core shares are in tests/engines/test_binding_headers.py)."""
from engines.go._core import ffi, lib


def test_constants_and_layouts_come_from_the_header():
    assert lib.GO_MAX_SIZE == 19 and lib.GO_MAX_POINTS == 21 * 21
    assert lib.GO_MAX_CANDIDATES == 19 * 19 + 1 and lib.GO_MAX_PV == 32
    res = ffi.new("go_search_result *")
    assert len(res.cand_x) == lib.GO_MAX_CANDIDATES
    assert len(res.ownership) == lib.GO_MAX_SIZE * lib.GO_MAX_SIZE
    assert len(res.pv_x) == lib.GO_MAX_PV
