"""qnn-architecture-checker (OpenQNN): HTP performance rules over a converted model."""
