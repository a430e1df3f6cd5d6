"""pm's modules import each other without a cycle, counting imports inside functions too,
and no pm module imports another module's private (underscore) names."""
import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _modules() -> dict[str, str]:
    out = {}
    for folder, _dirs, names in os.walk(os.path.join(ROOT, "pm")):
        for name in names:
            if name.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, name), ROOT)[:-3].split(os.sep)
                if rel[-1] == "__init__":
                    rel = rel[:-1]
                out[".".join(rel)] = os.path.join(folder, name)
    return out


def _edges(modules: dict[str, str], strict: bool) -> dict[str, set[str]]:
    """Module -> pm modules it imports. `from a import b` is an edge to a.b when that is a
    module, else to a; STRICT also counts an edge to a itself."""
    graph = {}
    for module, path in modules.items():
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
        targets = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
                targets.update(subs)
                if strict or len(subs) < len(node.names):
                    targets.add(base)
        graph[module] = {t for t in targets if t in modules and t != module}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found, state = [], {}

    def visit(node, stack):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                found.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = "done"
    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    return found


def test_no_import_cycles_in_pm():
    modules = _modules()
    assert "pm.unitofwork" in modules and "pm.web.blueprints.board" in modules
    for strict in (False, True):
        assert _cycles(_edges(modules, strict)) == [], f"strict={strict}"


def test_no_module_imports_another_modules_private_names():
    offences = []
    for module, path in _modules().items():
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(("pm", "plumbing")):
                offences += [f"{module}: {node.module}.{a.name}" for a in node.names
                             if a.name.startswith("_") and a.name != "__version__"]
    assert offences == []
