"""No import cycles in any package: a static walk of every import, at module level and inside
functions alike (a cycle hidden in a function is still two modules that need each other), and
of modules named in strings for importlib (plugin registries, lazy commands: "pkg.mod:attr").

`from pkg import sub` of a submodule depends on the submodule; `from pkg import name` of a name
defined in pkg/__init__.py depends on the package, so a submodule doing that while the
__init__ imports the submodule is a cycle. No module may use another's private names either."""
import ast
from pathlib import Path

from pm.graph import cycles  # Tarjan's strongly connected components, written once

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("plumbing", "pm", "instances", "demo", "skills", "engines")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            if path.suffix not in (".py", ".so") or "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            parts[-1] = parts[-1].split(".")[0]  # _core.abi3 -> _core
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _type_checking_only(node: ast.AST, parents: dict) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph = {name: set() for name in modules}
    for name, path in modules.items():
        if path.suffix != ".py":
            continue
        tree = ast.parse(path.read_text(), str(path))
        parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if _type_checking_only(node, parents):
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".") if node.level else []
                if node.level > 1:
                    base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
                # `from pkg import sub` needs pkg.sub; `from pkg import name` needs pkg itself.
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source
                           for a in node.names]
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and ("." in node.value or ":" in node.value)):
                # A string naming the module's own package (Flask("pm.web")) imports nothing:
                # the package is loaded before any of its modules.
                target = node.value.partition(":")[0]
                targets = [] if name.startswith(target + ".") else [target]
            else:
                continue
            for target in targets:
                if target in modules and target != name:
                    graph[name].add(target)
    return graph


def test_the_checker_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_imports_inside_functions_submodules_and_importlib_strings():
    graph = import_graph()
    assert "plumbing.errors" in graph["plumbing.lock"]
    assert "engines.go._core" in graph["engines.go.engine"]  # `from engines.go._core import ...`
    assert "engines.match.cli" in graph["engines.cli"]       # ToolGroup(lazy={"match": "engines.match.cli:..."})


def test_no_package_has_an_import_cycle():
    found = cycles(import_graph())
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def private_reaches() -> list[str]:
    """`from other import _name`, or `thing._name` where this module does not define _name
    (another module's, or a library's, private attribute)."""
    modules = _modules()
    found = []
    for name, path in modules.items():
        if path.suffix != ".py":
            continue
        tree = ast.parse(path.read_text(), str(path))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        aliases = {}  # local name -> project module it stands for
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".") if node.level else []
                if node.level > 1:
                    base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:
                    full = f"{source}.{alias.name}"
                    if full in modules:
                        aliases[alias.asname or alias.name] = full
                    elif alias.name.startswith("_") and source in modules and source != name:
                        found.append(f"{name} imports {source}.{alias.name}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules and alias.asname:
                        aliases[alias.asname] = alias.name
        own = _private_names_defined(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__") and node.attr not in own):
                found.append(f"{name} uses {ast.unparse(node)} (line {node.lineno})")
    return sorted(set(found))


def _private_names_defined(tree: ast.AST) -> set[str]:
    """The _names a module defines itself (functions, classes, attributes it assigns): using
    those on another object of its own classes is the module's own business."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                for part in ast.walk(target):
                    if isinstance(part, ast.Name):
                        names.add(part.id)
                    elif isinstance(part, ast.Attribute):
                        names.add(part.attr)
    return {n for n in names if n.startswith("_")}


def test_no_module_reaches_into_another_modules_private_names():
    found = private_reaches()
    assert found == [], "private names used across modules: " + "; ".join(found)
