"""The ONNX op converters by op type. Each ops module registers functions f(ctx, node, a) with
@converter('OpType', ...); Expansion and control-flow bodies look converters up here."""
CONVERTERS = {}


def converter(*op_types):
    def deco(fn):
        for t in op_types:
            CONVERTERS[t] = fn
        return fn
    return deco
