"""The marker-citation door: the verifier's cascade and which source a citation means."""
