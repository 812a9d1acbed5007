"""What the tests share: helper modules, not tests (pytest collects nothing here)."""
