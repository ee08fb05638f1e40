"""What every command shares: exit statuses and an argument parser whose errors are a
usage line and status 2, never SystemExit from deep inside a command."""
import argparse
import sys

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPT = 0, 1, 2, 70, 130


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise UsageError()
