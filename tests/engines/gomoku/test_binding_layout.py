"""The gomoku core's constants and struct layouts as the binding sees them come from its header
(the checks every core shares are in tests/engines/test_binding_headers.py)."""
from engines.gomoku._core import ffi, lib


def test_constants_and_layouts_come_from_the_header():
    assert lib.GM_MAX_SIZE == 20 and lib.GM_MAX_CELLS == 400 and lib.GM_MAX_LINES == 39
    board = ffi.new("gm_board *")
    assert len(board.cell) == lib.GM_MAX_CELLS and len(board.moves) == lib.GM_MAX_CELLS
    assert len(board.line) == 2 and len(board.line[0]) == lib.GM_NDIRS
    assert len(board.line[0][0]) == lib.GM_MAX_LINES
