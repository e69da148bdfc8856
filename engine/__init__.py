"""A rules engine for «Берсерк» that explains every decision by clause."""
