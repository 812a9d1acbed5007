"""What every layer uses: problems with positions, exit statuses, release order, the project's version, paths."""
