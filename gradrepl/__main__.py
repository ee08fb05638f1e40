from gradrepl.cli import entry

entry()
