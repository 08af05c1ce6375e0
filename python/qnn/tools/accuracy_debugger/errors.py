"""The one error the accuracy debugger reports to its user: one line, exit code 1, no traceback."""


class DebuggerError(Exception):
    pass
