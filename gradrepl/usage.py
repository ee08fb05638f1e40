"""What every command shares: exit statuses and an argument parser whose errors are a
usage line and status 2, never SystemExit from deep inside a command.

`Parser` is built on first use (argparse, with the gettext, locale and shutil imports its
help formatter makes, is a tenth of `gradrepl run FILE`'s start-up and not needed there)."""

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPT = 0, 1, 2, 70, 130


class UsageError(Exception):
    pass


def _make_parser_class():
    import argparse
    import sys

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            self.print_usage(sys.stderr)
            print(f"{self.prog}: error: {message}", file=sys.stderr)
            raise UsageError()

    return Parser


def __getattr__(name):
    if name == "Parser":
        globals()["Parser"] = parser = _make_parser_class()
        return parser
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
