"""Computer players.  Bots are clients of the engines: they see only their seat's view and the legal moves."""
