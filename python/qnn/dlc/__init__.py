"""The DLC file format (docs/dlc-format.md): writer (a converted graph -> one .dlc) and reader (.dlc -> graph).
The System DLC API of libQnnSystem.so is qnn.Dlc (qnn/_dlc.py)."""
