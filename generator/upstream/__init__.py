"""Upstream's repositories and files, read: git, the Python and C/C++ sources, the pages'
tables. Both `audit` and `import` stand on these readers; neither imports the other."""
