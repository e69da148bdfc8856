"""The rules of «Берсерк» as a cross-reference graph with a Russian search."""
