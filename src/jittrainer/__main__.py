from jittrainer.cli import main

raise SystemExit(main())
