import pytest

from engines import wasm


@pytest.fixture(scope="session")
def wasm_dir(tmp_path_factory):
    """Every core built for WebAssembly into a scratch directory, once per session."""
    out = tmp_path_factory.mktemp("wasm")
    for game in wasm.HEADERS:
        wasm.build(game, out)
    return out
