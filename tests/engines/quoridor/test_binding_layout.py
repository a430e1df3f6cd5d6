"""The quoridor core's constants and struct layouts as the binding sees them come from its header
(the checks every core shares are in tests/engines/test_binding_headers.py)."""
from engines.quoridor._core import ffi, lib


def test_constants_and_layouts_come_from_the_header():
    assert lib.QR_MAX_SIZE == 9 and lib.QR_MAX_CELLS == 81 and lib.QR_MAX_SLOTS == 64
    assert lib.QR_WALL_V == lib.QR_WALL_H + 64 and lib.QR_MAX_MOVES == 5 + 128
    b = ffi.new("qr_board *")
    assert len(b.pawn) == 2 and len(b.open_e.w) == 2
    assert lib.qr_board_init(b, 9, -1, 1) == 0 and b.walls_left[1] == 10
    assert lib.qr_board_init(b, 8, -1, 1) == lib.QR_ERR_SIZE
