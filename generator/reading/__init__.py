"""The catalog read and validated into the model: strict YAML, typed fields, every problem at once."""
