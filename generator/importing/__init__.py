"""`import`: upstream's pages and releases brought into the catalog as the smallest diff."""
