"""The rules of Skat (International Skat Order), pure Python: cards, tables, bidding, tricks,
scoring, the move vocabulary, the game state machine, records and rewards. Knows nothing of RL."""
