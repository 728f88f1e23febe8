"""What a seat may know and how it is encoded: the view, the flat observation, the per-move
tracker and the batched encoder."""
