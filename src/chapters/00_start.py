md(zh="# 从这里开始", en="# Start here", ru="# С чего начать")
code("""
import lib
print(sorted(lib.__all__))
""")
