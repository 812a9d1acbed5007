"""The output tree: its survey, atomic writes, the lock, the manifests, the cache and the quick path."""
