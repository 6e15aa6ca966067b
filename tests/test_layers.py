"""The layers point one way: no package imports one above it.

The table below is the whole rule, written once. A package may import itself and the
packages of the layers below its own; packages that share a layer leave each other alone,
except in an `open` layer (the shell, the host's parts), whose modules wire each other
together. The host may use only the firmware packages that run on a PC without the board.
Every import counts, also one inside a function or under `TYPE_CHECKING`.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {
    "reedboard": ROOT / "firmware" / "reedboard",
    "reedboard_host": ROOT / "host" / "reedboard_host",
    "reedboard_relay": ROOT / "host" / "reedboard_relay",
}


@dataclass(frozen=True)
class Layer:
    name: str
    packages: tuple[str, ...]
    open: bool = False  # whether the packages of this layer may import one another


# Bottom first.
FIRMWARE_LAYERS = (
    Layer(
        "foundation",
        (
            "reedboard",
            "reedboard.errors",
            "reedboard.command_line",
            "reedboard.argument_types",
            "reedboard.log_setup",
            "reedboard.plain_arguments",
            "reedboard.plain_toml",
            "reedboard.stopping",
        ),
    ),
    Layer("rules", ("reedboard.rules",)),
    Layer("chess clock", ("reedboard.chess_clock",)),
    Layer("hardware", ("reedboard.hal",)),
    Layer("sensing", ("reedboard.sensing",)),
    Layer("events", ("reedboard.events",)),
    Layer("reader", ("reedboard.reader",)),
    Layer(
        "outputs", ("reedboard.lights", "reedboard.link", "reedboard.journal", "reedboard.voice")
    ),
    Layer("game clocks", ("reedboard.game_clocks",)),
    Layer("game report", ("reedboard.game_report",)),
    Layer("game", ("reedboard.board_game",)),
    Layer("replay", ("reedboard.replay",)),
    Layer("simulated player", ("reedboard.sim",)),
    Layer("bluetooth", ("reedboard.ble",)),
    Layer("lichess", ("reedboard.lichess",)),
    Layer("opponents", ("reedboard.opponents",)),
    Layer(
        "shell",
        (
            "reedboard.config",
            "reedboard.config_section",
            "reedboard.wiring",
            "reedboard.game_record",
            "reedboard.speaking",
            "reedboard.kept_link",
            "reedboard.app_ports",
            "reedboard.app_outbox",
            "reedboard.app_self_test",
            "reedboard.app",
            "reedboard.simweb",
            "reedboard.web",
            "reedboard.commands",
            "reedboard.cli",
        ),
        open=True,
    ),
)
HOST_LAYERS = (
    Layer(
        "host parts",
        (
            "reedboard_host",
            "reedboard_host.usb_ports",
            "reedboard_host.transport",
            "reedboard_host.arguments",
            "reedboard_host.board_text",
            "reedboard_host.mirror",
            "reedboard_host.pgn_file",
            "reedboard_host.connection",
            "reedboard_host.fetch",
            "reedboard_host.follow",
            "reedboard_host.emulate_feed",
        ),
        open=True,
    ),
    Layer(
        "host bridges",
        (
            "reedboard_host.emulate",
            "reedboard_host.play",
            "reedboard_host.uci",
            "reedboard_host.lichess",
            "reedboard_host.publish",
            "reedboard_host.watch",
        ),
    ),
    Layer("relay", ("reedboard_relay",)),
    Layer("host command", ("reedboard_host.cli",)),
)
# The firmware's packages that run on a PC without the board: no hardware, no journal,
# no board loop.
HOST_MAY_USE = (
    "reedboard",
    "reedboard.errors",
    "reedboard.command_line",
    "reedboard.argument_types",
    "reedboard.log_setup",
    "reedboard.stopping",
    "reedboard.rules",
    "reedboard.chess_clock",
    "reedboard.sensing",
    "reedboard.events",
    "reedboard.reader",
    "reedboard.lights",
    "reedboard.link",
    "reedboard.voice",
    # The engine's process, which `reedboard-host play` runs on a PC as the board does.
    "reedboard.opponents",
    # The Lichess client and synchroniser, which `reedboard-host lichess` runs on a PC.
    "reedboard.lichess",
    # Only for the voice's espeak-ng adapter, which speaks on a PC as on the board: the
    # hardware libraries are imported only inside their own adapters.
    "reedboard.hal",
)


@dataclass(frozen=True)
class Place:
    stack: str  # "firmware" or "host"
    level: int
    layer: Layer


def places() -> dict[str, Place]:
    table: dict[str, Place] = {}
    for stack, layers in (("firmware", FIRMWARE_LAYERS), ("host", HOST_LAYERS)):
        for level, layer in enumerate(layers):
            for package in layer.packages:
                assert package not in table, f"{package} is in two layers"
                table[package] = Place(stack, level, layer)
    return table


# Top packages the table speaks of as one unit, whose modules wire each other together.
WHOLE = ("reedboard_relay",)


def package_of(module: str) -> str:
    """The unit the table speaks of: the top package itself, or its direct child (a package
    of `WHOLE` is one unit)."""
    top = module.split(".")[0]
    return top if top in WHOLE else ".".join(module.split(".")[:2])


def module_files() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for root, folder in SOURCES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = [root, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imported(module: str, path: Path, known: set[str]) -> list[tuple[int, str]]:
    """Every project module `module` imports, with the line, wherever the import stands."""
    found: list[tuple[int, str]] = []
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[: None if is_package else -1]
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            for alias in node.names:
                # `from reedboard.lights import led_test` imports a module, not a name.
                submodule = f"{target}.{alias.name}"
                found.append((node.lineno, submodule if submodule in known else target))
    project = (entry for entry in found if entry[1].split(".")[0] in SOURCES)
    return list(dict.fromkeys(project))  # `from x import a, b` is one import of x


@functools.cache
def project_imports() -> dict[str, list[tuple[int, str]]]:
    """Every project module's imports, read once for the three tests that use them (each
    module's parse is most of their cost)."""
    files = module_files()
    known = set(files)
    return {module: imported(module, path, known) for module, path in files.items()}


def broken_rule(importer: str, target: str, table: dict[str, Place]) -> str | None:
    """Why `importer`'s package may not import `target`'s, or None when it may."""
    mine, theirs = package_of(importer), package_of(target)
    if mine == theirs:
        return None
    if theirs not in table:
        return f"{theirs} is in no layer of the table"
    here, there = table[mine], table[theirs]
    if here.stack == "host" and there.stack == "firmware":
        if theirs in HOST_MAY_USE:
            return None
        return f"the host may use only the firmware's {', '.join(HOST_MAY_USE)}"
    if here.stack != there.stack:
        return f"the firmware never imports the host ({theirs})"
    if there.level < here.level:
        return None
    if there.level == here.level:
        if here.layer.open:
            return None
        return f"{mine} and {theirs} share the layer {here.layer.name!r} and leave each other alone"
    return f"{mine} (layer {here.layer.name!r}) sits below {theirs} (layer {there.layer.name!r})"


def violations() -> list[str]:
    table = places()
    files = module_files()
    found = []
    for module, path in files.items():
        package = package_of(module)
        if package not in table:
            found.append(f"{module}: its package {package} is in no layer of the table")
            continue
        for line, target in project_imports()[module]:
            rule = broken_rule(module, target, table)
            if rule is not None:
                where = path.relative_to(ROOT)
                found.append(f"{where}:{line}: {module} imports {target}: {rule}")
    return found


def test_no_package_imports_a_layer_above_its_own() -> None:
    found = violations()
    assert not found, "\n".join(["imports against the layers:", *found])


def test_the_table_names_only_packages_that_exist() -> None:
    existing = {package_of(module) for module in module_files()}
    assert set(places()) <= existing, sorted(set(places()) - existing)
    assert set(HOST_MAY_USE) <= existing


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    """The check is not blind to the imports a module makes late, to stay cheap at start."""
    path = tmp_path / "late.py"
    path.write_text("def f():\n    from reedboard.app import App\n    return App\n")
    found = imported("reedboard.rules.late", path, set(module_files()))
    assert found == [(2, "reedboard.app")]
    assert broken_rule("reedboard.rules.late", "reedboard.app", places()) is not None


def test_the_rules_name_what_they_forbid() -> None:
    table = places()
    assert broken_rule("reedboard.hal.rpi", "reedboard.config", table) == (
        "reedboard.hal (layer 'hardware') sits below reedboard.config (layer 'shell')"
    )
    assert "leave each other alone" in str(
        broken_rule("reedboard.lights.output", "reedboard.link.messages", table)
    )
    assert "the host may use only" in str(
        broken_rule("reedboard_host.fetch", "reedboard.board_game", table)
    )
    assert "never imports the host" in str(
        broken_rule("reedboard.app", "reedboard_host.connection", table)
    )
    assert broken_rule("reedboard.app", "reedboard.board_game", table) is None  # the open shell
    assert broken_rule("reedboard.reader.table", "reedboard.sensing.debounce", table) is None


# ----- within a package: imports point one way, and nobody reaches into a module -----

# Cycles that stand today outside the reader, each through an import made late on purpose
# (to keep a command's start cheap, or Position's own constructors): each is to be broken
# by its package's owner, and the list only shrinks (see the test below that it is true).
KNOWN_CYCLES = frozenset(
    {
        frozenset({"reedboard.commands.journal", "reedboard.commands.journal_resume"}),
        frozenset({"reedboard.rules.chess960", "reedboard.rules.fen", "reedboard.rules.position"}),
    }
)


def import_cycles() -> set[frozenset[str]]:
    """The sets of modules of one package that import each other round (every import
    counts, as above), by Tarjan's strongly connected components."""
    imports = project_imports()
    graph = {
        module: sorted(
            target
            for _line, target in found_there
            if target in imports and target != module and package_of(target) == package_of(module)
        )
        for module, found_there in imports.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = {stack.pop()}
            while module not in component:
                component.add(stack.pop())
            if len(component) > 1:
                found.add(frozenset(component))

    for module in graph:
        if module not in index:
            visit(module)
    return found


def test_no_import_cycle_within_a_package() -> None:
    new = import_cycles() - KNOWN_CYCLES
    assert not new, "modules that import each other round:\n" + "\n".join(
        ", ".join(sorted(cycle)) for cycle in new
    )


def test_the_known_cycles_are_still_there() -> None:
    """A cycle broken leaves the list, so that it cannot come back unseen."""
    assert import_cycles() >= KNOWN_CYCLES


def own_private_names(tree: ast.AST) -> set[str]:
    """The private names a module defines: its functions, classes, module names and the
    attributes it sets on `self` or `cls`."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
        ):
            names.add(node.attr)
    return {name for name in names if name.startswith("_")}


# A named tuple's public methods carry an underscore only so as not to clash with its
# fields: they are its documented interface, not private names.
NAMED_TUPLE_API = frozenset({"_replace", "_asdict", "_fields", "_make", "_field_defaults"})


def private_reaches(path: Path, root: Path = ROOT) -> list[str]:
    """Every `x._name` in a module where x is not self or cls and `_name` is not the
    module's own: another module's (or library's) private name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    own = own_private_names(tree)
    return [
        f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and node.attr not in own
        and node.attr not in NAMED_TUPLE_API
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]


def test_no_module_reaches_into_another_modules_private_names() -> None:
    found = [reach for path in module_files().values() for reach in private_reaches(path)]
    assert not found, "\n".join(["private names used from outside:", *found])


# Private names imported from another module that stand today, outside the reader: to be
# made public or moved by their package's owner; the list only shrinks (see below).
KNOWN_PRIVATE_IMPORTS = frozenset(
    {
        "host/reedboard_relay/broadcast_delay.py: reedboard_relay.arbiter_console._body",
        "host/reedboard_relay/time_desk.py: reedboard_relay.arbiter_console._board_named",
        "host/reedboard_relay/time_desk.py: reedboard_relay.arbiter_console._body",
        "host/reedboard_relay/time_desk.py: reedboard_relay.arbiter_console._text",
    }
)


def private_imports(path: Path, root: Path = ROOT) -> set[str]:
    """Every `from module import _name` of a project module: another module's private
    name taken (a reach the attribute check above cannot see)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return {
        f"{path.relative_to(root)}: {node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and not node.level
        if node.module.split(".")[0] in SOURCES
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    }


def test_no_module_imports_another_modules_private_names() -> None:
    found = {name for path in module_files().values() for name in private_imports(path)}
    new = found - KNOWN_PRIVATE_IMPORTS
    assert not new, "\n".join(["private names imported from another module:", *sorted(new)])
    assert found >= KNOWN_PRIVATE_IMPORTS, "a known private import is gone: strike it off"


def test_the_private_import_check_sees_one(tmp_path: Path) -> None:
    path = tmp_path / "taker.py"
    path.write_text(
        "from __future__ import annotations\n"
        "from reedboard.reader.knock import _helper, public\nfrom os import _exit\n"
    )
    assert private_imports(path, tmp_path) == {"taker.py: reedboard.reader.knock._helper"}


def test_the_private_check_sees_a_reach(tmp_path: Path) -> None:
    """A private attribute of another object is a reach; the module's own private
    attributes, on another instance of its class, are not. (The known cycles above,
    found, show the cycle check is not blind either.)"""
    path = tmp_path / "reach.py"
    path.write_text(
        "class A:\n    def __init__(self):\n        self._mine = 1\n"
        "    def same(self, other):\n        return other._mine\n"
        "def f(reader):\n    return reader._events\n"
    )
    assert private_reaches(path, tmp_path) == ["reach.py:7: reader._events"]
