from tui_grid.cli import main

raise SystemExit(main())
