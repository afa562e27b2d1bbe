"""Running over many files: finding them, the result cache, the process pool, the git index, settings and --fix."""
