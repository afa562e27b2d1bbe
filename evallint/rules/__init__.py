"""Rule families: each module holds the checks of one code group."""
