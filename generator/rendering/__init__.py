"""The outputs planned and rendered from the model: the table of targets, escaping, each kind of output."""
