"""Functions anyproc.script must refuse: each uses one unsupported construct.

The offending line carries a ``# unsupported: WORD`` marker; the test checks
that the SyntaxError names WORD and points at that line of this file.
"""
# ruff: noqa
import contextlib


def uses_lambda_reading_a_changing_variable(text):
    f = lambda x: x + text  # unsupported: lambda that reads the enclosing function's variable 'text'
    text = text.upper()
    return f(text)


def uses_recursive_nested_def_made_in_a_loop(text):
    out = []
    for w in text.split():
        def rev(s):  # unsupported: nested function 'rev' reads its own name
            return s if len(s) < 2 else rev(s[1:]) + s[0]
        out.append(rev(w))
    return out


def uses_class(text):
    class A:  # unsupported: class
        pass
    return text


def uses_except_of_other_exception(text):
    try:
        return int(text)
    except EOFError:  # unsupported: except EOFError
        return 0


def uses_with(text):
    with contextlib.suppress(Exception):  # unsupported: with
        return text


def uses_import(text):
    text = text.strip()
    import os  # unsupported: import statements after the first statements
    return text


def uses_match(text):
    match text:  # unsupported: match
        case "":
            return 0
    return 1


def uses_keyword_dict(text):
    options = {"sep": " "}
    return print(text, **options)  # unsupported: '**' arguments are not supported in anyscript but in calls of


def uses_nested_mutable_keyword_default(text):
    def split(s, *, seen=[]):  # unsupported: of nested function 'split' is a list, dict or set
        return s.split()
    return split(text)


def uses_decorated_nested_def(text):
    @staticmethod  # unsupported: decorators on a nested function
    def inner(x):
        return x
    return inner(text)


def uses_yield_as_a_value(text):
    sent = yield text  # unsupported: yield as an expression
    return sent


def uses_yield_in_try(text):
    try:
        yield text  # unsupported: 'yield' inside 'try'
    finally:
        pass


def uses_generator_expression(text):
    n = 1
    lengths = (len(w) * n for w in text.split())  # unsupported: a generator expression that reads
    n = 2
    return sum(lengths)


def uses_global(text):
    global COUNTER  # unsupported: global
    return text


def uses_object_default(text, sep=object()):  # unsupported: default value of type object
    return text.split(sep)


def uses_keyword_only_object_default(text, *, sep=object()):  # unsupported: default value of type object
    return text.split(sep)


def uses_lambda_star_args(text):
    return sorted(text, key=lambda c, *rest: c)  # unsupported: *args in a lambda


def uses_raise_of_exception(text):
    if not text:
        raise Exception("empty")  # unsupported: raising this exception
    return text


def uses_bare_raise(text):
    raise  # unsupported: a bare 'raise' outside an 'except' clause


def uses_big_int(text):
    return 2**70 + 1180591620717411303424  # unsupported: integer literals outside 64 bits


def uses_del_of_a_variable(text):
    x = [text]
    del x  # unsupported: del of a variable
    return text


def uses_module_function(text):
    return contextlib.suppress(text)  # unsupported: contextlib


@contextlib.contextmanager  # unsupported: decorator
def uses_decorator(text):
    return text


def uses_nested_starred_target(text):
    for i, (*_, c) in enumerate(text.split()):  # unsupported: starred assignment inside a nested tuple
        return c
    return text
