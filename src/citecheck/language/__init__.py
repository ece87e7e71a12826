"""Text and language: normalisation with offsets, sentences and tokens, numbers and
the quantities a claim states."""
