"""Terminal renderings of the evaluation result."""
