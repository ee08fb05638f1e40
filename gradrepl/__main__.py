from gradrepl.cli import main

raise SystemExit(main())
