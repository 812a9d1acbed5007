"""`audit`: the catalog against upstream's files, given as files or read from its repositories."""
