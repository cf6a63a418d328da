"""anyscript source text from the JSON syntax tree that :mod:`anyproc.script` builds.

A traced pipeline embeds scripted functions in its ``functions`` key, which
holds source text, so the lowered tree (where ``anyproc.ops.x`` already became
``ops.x``, constants are inlined and helpers renamed) is printed back as
Python-syntax text. Operands that are themselves operator expressions are
parenthesised; that is always correct and keeps the printer small.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional

_BIN = {
    "add": "+", "sub": "-", "mul": "*", "div": "/", "floor_div": "//", "mod": "%", "pow": "**",
    "bit_and": "&", "bit_or": "|", "bit_xor": "^", "l_shift": "<<", "r_shift": ">>",
}
_UNARY = {"not": "not ", "neg": "-", "pos": "+", "invert": "~"}
_CMP = {
    "eq": "==", "not_eq": "!=", "lt": "<", "lt_e": "<=", "gt": ">", "gt_e": ">=",
    "in": "in", "not_in": "not in", "is": "is", "is_not": "is not",
}
# Expressions that never need parentheses as an operand.
_ATOMS = {
    "name", "attribute", "call", "list", "tuple", "dict", "set", "subscript", "slice", "list_comp", "dict_comp",
    "set_comp", "generator_exp", "named",
}

Expr = Dict[str, Any]


def literal(lit: Dict[str, Any]) -> str:
    """A literal in source form (``repr`` escapes strings the way anyscript's lexer reads them)."""
    kind = lit["type"]
    if kind == "none":
        return "None"
    value = lit["value"]
    if kind == "float" and not math.isfinite(value):
        return f"float({repr(str(value))})"
    if kind == "bytes":
        return repr(bytes(value))
    return repr(value)


def expr(e: Expr) -> str:
    """``e`` as source text."""
    kind = e["expr"]
    if kind == "const":
        return literal(e["value"])
    if kind == "name":
        return e["id"]
    if kind == "attribute":
        return f"{operand(e['value'], attr=True)}.{e['attr']}"
    if kind == "call":
        args = [f"*{expr(a['value'])}" if a["expr"] == "starred" else expr(a) for a in e["args"]]
        # `**mapping` is the keyword named `**`.
        args += [f"**{expr(k['value'])}" if k["arg"] == "**" else f"{k['arg']}={expr(k['value'])}"
                 for k in e.get("keywords", ())]
        return f"{operand(e['func'], attr=True)}({', '.join(args)})"
    if kind == "bin_op":
        return f"{operand(e['left'])} {_BIN[e['op']]} {operand(e['right'])}"
    if kind == "unary_op":
        return f"{_UNARY[e['op']]}{operand(e['operand'])}"
    if kind == "bool_op":
        return f" {e['op']} ".join(operand(v) for v in e["values"])
    if kind == "compare":
        parts = [operand(e["left"])]
        for op, c in zip(e["ops"], e["comparators"]):
            parts.append(f"{_CMP[op]} {operand(c)}")
        return " ".join(parts)
    if kind == "named":
        return f"({e['target']} := {expr(e['value'])})"
    if kind == "if_exp":
        return f"{operand(e['body'])} if {operand(e['test'])} else {operand(e['orelse'])}"
    if kind == "list":
        return f"[{', '.join(expr(i) for i in e['items'])}]"
    if kind == "tuple":
        items = [expr(i) for i in e["items"]]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if kind == "dict":
        # A key None is `**value`.
        pairs = (f"**{operand(v)}" if k is None else f"{expr(k)}: {expr(v)}" for k, v in zip(e["keys"], e["values"]))
        return "{" + ", ".join(pairs) + "}"
    if kind == "set":
        # Never empty: the parser reads `{}` as a dict, and `set()` is a call.
        return "{" + ", ".join(expr(i) for i in e["items"]) + "}"
    if kind == "starred":
        # An item of a display (`[*a, b]`); a call's are printed by the call.
        return f"*{operand(e['value'])}"
    if kind == "subscript":
        return f"{operand(e['value'], attr=True)}[{expr(e['index'])}]"
    if kind == "slice":
        return _slice(e)
    if kind == "list_comp":
        return f"[{expr(e['elt'])}{_comprehension(e)}]"
    if kind == "dict_comp":
        return f"{{{expr(e['key'])}: {expr(e['value'])}{_comprehension(e)}}}"
    if kind == "set_comp":
        return f"{{{expr(e['elt'])}{_comprehension(e)}}}"
    if kind == "generator_exp":
        # Always parenthesised: valid everywhere, also as a call's sole argument (`f((x for x in y))`).
        return f"({expr(e['elt'])}{_comprehension(e)})"
    if kind == "lambda":
        # Not an atom: as an operand, `operand` parenthesises it.
        names, defaults = e["params"], e.get("defaults", [])
        first = len(names) - len(defaults)
        params = ", ".join(names[:first] + [f"{n}={expr(d)}" for n, d in zip(names[first:], defaults)])
        return f"lambda {params}: {expr(e['body'])}" if params else f"lambda: {expr(e['body'])}"
    raise ValueError(f"unknown expression kind {kind!r}")


def _comprehension(e: Expr) -> str:
    """A comprehension's ``for target in iter if cond...`` clauses, with a space before each."""
    return "".join(_clause(c) for c in [e, *e.get("more", [])])


def _clause(c: Expr) -> str:
    """One ``for target in iter if cond...`` clause, with a space before it."""
    ifs = "".join(f" if {operand(cond)}" for cond in c["ifs"])
    return f" for {target(c['target'])} in {operand(c['iter'])}{ifs}"


def _opt(e: Optional[Expr]) -> str:
    return "" if e is None else expr(e)


def operand(e: Expr, attr: bool = False) -> str:
    """``e`` as an operand: parenthesised unless it is an atom.

    Before ``.attr``, ``(...)`` or ``[...]`` a number literal needs parentheses
    too (``(1).bit_length``), and so does any non-atom.
    """
    text = expr(e)
    kind = e["expr"]
    if kind in _ATOMS:
        return text
    if kind == "const" and not (attr and e["value"]["type"] in ("int", "float")) and not text.startswith("-"):
        return text
    return f"({text})"


def _slice(e: Dict[str, Any]) -> str:
    """``value[lower:upper:step]``, of an expression or a target alike."""
    parts = [_opt(e["lower"]), _opt(e["upper"])]
    if e.get("step") is not None:
        parts.append(expr(e["step"]))
    return f"{operand(e['value'], attr=True)}[{':'.join(parts)}]"


def target(t: Dict[str, Any], top: bool = True) -> str:
    """An assignment target; a tuple is bare at the top (``a, b = ...``), parenthesised inside."""
    kind = t["target"]
    if kind == "name":
        return t["id"]
    if kind == "subscript":
        return f"{operand(t['value'], attr=True)}[{expr(t['index'])}]"
    if kind == "slice":
        return _slice(t)
    if kind == "starred":
        return f"*{target(t['value'], top=False)}"
    items = [target(i, top=False) for i in t["items"]]
    if not items:
        return "()"
    text = f"{items[0]}," if len(items) == 1 else ", ".join(items)
    return text if top else f"({text})"


def stmts(body: List[Dict[str, Any]], indent: str, out: List[str]) -> None:
    if not body:
        out.append(f"{indent}pass")
    for s in body:
        stmt(s, indent, out)


def stmt(s: Dict[str, Any], indent: str, out: List[str]) -> None:
    kind = s["stmt"]
    inner = indent + "    "
    if kind == "expr":
        out.append(f"{indent}{expr(s['value'])}")
    elif kind == "assign":
        targets = " = ".join(target(t) for t in s["targets"])
        out.append(f"{indent}{targets} = {expr(s['value'])}")
    elif kind == "aug_assign":
        out.append(f"{indent}{target(s['target'])} {_BIN[s['op']]}= {expr(s['value'])}")
    elif kind == "if":
        out.append(f"{indent}if {expr(s['test'])}:")
        stmts(s["body"], inner, out)
        orelse = s["orelse"]
        # `elif` keeps chains flat instead of nesting an `if` per branch.
        while len(orelse) == 1 and orelse[0]["stmt"] == "if":
            out.append(f"{indent}elif {expr(orelse[0]['test'])}:")
            stmts(orelse[0]["body"], inner, out)
            orelse = orelse[0]["orelse"]
        if orelse:
            out.append(f"{indent}else:")
            stmts(orelse, inner, out)
    elif kind == "for":
        out.append(f"{indent}for {target(s['target'])} in {expr(s['iter'])}:")
        stmts(s["body"], inner, out)
        _else_block(s, indent, out)
    elif kind == "while":
        out.append(f"{indent}while {expr(s['test'])}:")
        stmts(s["body"], inner, out)
        _else_block(s, indent, out)
    elif kind == "try":
        out.append(f"{indent}try:")
        stmts(s["body"], inner, out)
        for h in s["handlers"]:
            out.append(f"{indent}{_except_header(h)}:")
            stmts(h["body"], inner, out)
        _else_block(s, indent, out)
        if s.get("finalbody"):
            out.append(f"{indent}finally:")
            stmts(s["finalbody"], inner, out)
    elif kind == "reraise":
        out.append(f"{indent}raise")
    elif kind == "return":
        value = s.get("value")
        out.append(f"{indent}return" if value is None else f"{indent}return {expr(value)}")
    elif kind == "yield":
        value = s.get("value")
        out.append(f"{indent}yield" if value is None else f"{indent}yield {expr(value)}")
    elif kind == "yield_from":
        out.append(f"{indent}yield from {expr(s['value'])}")
    elif kind == "raise":
        value, cause = s.get("value"), s.get("cause")
        if not s["exc"]:
            raised = expr(value)  # `raise e`: the value itself
        else:
            raised = s["exc"] if value is None else f"{s['exc']}({expr(value)})"
        out.append(f"{indent}raise {raised}" + ("" if cause is None else f" from {expr(cause)}"))
    elif kind == "assert":
        msg = s.get("msg")
        out.append(f"{indent}assert {expr(s['test'])}" + ("" if msg is None else f", {expr(msg)}"))
    elif kind == "delete":
        # Each tuple target parenthesised, so `del (a, b)` stays one target rather than two.
        out.append(f"{indent}del {', '.join(target(t, top=False) for t in s['targets'])}")
    elif kind == "def":
        for line in unparse_function(s["function"]).splitlines():
            out.append(f"{indent}{line}")
    elif kind == "nonlocal":
        out.append(f"{indent}nonlocal {', '.join(s['names'])}")
    elif kind in ("break", "continue", "pass"):
        out.append(f"{indent}{kind}")
    else:
        raise ValueError(f"unknown statement kind {kind!r}")


def _else_block(s: Dict[str, Any], indent: str, out: List[str]) -> None:
    """The ``else:`` block of a loop or a ``try``, when it has one."""
    if s.get("orelse"):
        out.append(f"{indent}else:")
        stmts(s["orelse"], indent + "    ", out)


def _except_header(h: Dict[str, Any]) -> str:
    """``except``, ``except E``, ``except (A, B)``, each with `` as name`` when it binds one."""
    types = h["types"]
    name = h.get("name")
    if not types:
        if name is not None:
            raise ValueError(f"a bare except cannot bind a name ({name!r})")
        return "except"
    head = f"except {types[0]}" if len(types) == 1 else f"except ({', '.join(types)})"
    return head if name is None else f"{head} as {name}"


def unparse_function(f: Dict[str, Any]) -> str:
    """One ``FunctionDef`` (as a dict) as anyscript source, ending with a newline."""
    params = list(f["params"])
    defaults = f.get("defaults") or []
    # The defaults belong to the last parameters.
    first = len(params) - len(defaults)
    for i, d in enumerate(defaults):
        params[first + i] += f"={expr(d)}"
    if f.get("posonly"):
        params.insert(f["posonly"], "/")
    kwonly = [p if d is None else f"{p}={expr(d)}" for p, d in zip(f.get("kwonly", []), f.get("kw_defaults", []))]
    if f.get("vararg") or kwonly:
        params.append(f"*{f.get('vararg') or ''}")
    params += kwonly
    if f.get("kwarg"):
        params.append(f"**{f['kwarg']}")
    out = [f"def {f['name']}({', '.join(params)}):"]
    stmts(f["body"], "    ", out)
    return "\n".join(out) + "\n"


def unparse_constant(c: Dict[str, Any]) -> str:
    """One module constant (``NAME = value``, as a dict) as anyscript source, ending with a newline."""
    return f"{c['name']} = {expr(c['value'])}\n"
