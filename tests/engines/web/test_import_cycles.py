"""No import cycles in the engines package, counting every import: module level, inside
functions, and modules named in strings (for importlib: plugin registries, lazy commands).

`from pkg import sub` of a submodule depends on the submodule; `from pkg import name` of a name
defined in pkg/__init__.py depends on the package, so a submodule doing that while the
__init__ imports the submodule is a cycle.
"""
import ast
from pathlib import Path

import engines

PACKAGE = Path(engines.__file__).resolve().parent


def modules(root: Path) -> dict[str, Path]:
    found = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def dependencies(name: str, path: Path, known: dict) -> set[str]:
    tree = ast.parse(path.read_text())
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1]
                                + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.update([sub] if sub in known else [base] if base in known else [])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            target = node.value.partition(":")[0]  # "pkg.module" or "pkg.module:attr"
            if target in known:
                out.add(target)
    out.discard(name)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def graph_of(root: Path) -> dict[str, set[str]]:
    known = modules(root)
    return {name: dependencies(name, path, known) for name, path in known.items()}


def test_the_engines_package_has_no_import_cycle():
    graph = graph_of(PACKAGE)
    assert "engines.web.go" in graph["engines.web.plugins"]  # the registry's string is seen
    assert "engines.match.cli" in graph["engines.cli"]  # and the lazy command's
    assert cycles(graph) == []


def test_the_checker_sees_a_name_imported_from_a_package_that_imports_the_module(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from pkg import a\nVALUE = 1\n")
    (pkg / "a.py").write_text("def f():\n    from pkg import VALUE\n    return VALUE\n")
    (pkg / "b.py").write_text("from pkg import a\n")  # a submodule: no cycle
    assert cycles(graph_of(pkg)) == [["pkg", "pkg.a"]]
